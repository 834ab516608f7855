/** "1 order", "2 orders", "0 orders": a count and its noun, for the owner's command-line messages. */
export const counted = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
