// The paraphrase files are imported as text (Bun's `with { type: "text" }`), so the compiled
// executable carries them like the migrations.
declare module "*.txt" {
  const text: string;
  export default text;
}
