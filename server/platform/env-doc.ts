import * as v from "valibot";

// What the owner reads about each variable of the environment, kept beside its schema (env.ts) so
// that the configuration reference, docs/owner/configuration.md, is written from it by
// `npm run docs:config` (scripts/config-docs.ts) and a test fails when the two differ.

/** The reference's sections, in the order it shows them. */
export const ENV_SECTIONS = [
  "The server",
  "The shop and its offer",
  "The seller and the legal pages",
  "Payments",
  "The support chat",
  "E-mail and the owner's digest",
  "Data, privacy and audience",
  "Backups",
] as const;

export type EnvSection = (typeof ENV_SECTIONS)[number];

export type EnvDoc = {
  section: EnvSection;
  /** What the variable does, in Markdown, in sentences. */
  description: string;
  /**
   * What applies when the variable is unset, for a variable whose schema has no default of its own
   * (a computed one: `number of cores`). A schema's own default is shown as it is and cannot be
   * given here, so the two can never disagree.
   */
  default?: string;
  /**
   * A production start refuses to go on without it: `true`, or when and what (`with Stripe`).
   * test/server/config-docs.test.ts holds this to the truth: a production environment setting
   * exactly the marked variables starts, and stops naming each one left out.
   */
  requiredInProduction?: true | string;
};

/** A variable's schema with its documentation attached, read back by `envDocOf`. */
export function documented<const TSchema extends v.GenericSchema>(schema: TSchema, doc: EnvDoc) {
  return v.pipe(schema, v.metadata<v.InferOutput<TSchema>, { envDoc: EnvDoc }>({ envDoc: doc }));
}

/** The documentation `documented` attached to a variable's schema, or undefined when it has none. */
export function envDocOf(schema: v.GenericSchema): EnvDoc | undefined {
  const metadata: { envDoc?: EnvDoc } = v.getMetadata(schema);
  return metadata.envDoc;
}
