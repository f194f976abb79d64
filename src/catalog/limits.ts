/** The limits a description must stay within, named in the refusal when it does not. */

/** A description larger than this is refused before it is parsed (GitHub's whole API is 13 MB). */
export const MAX_DESCRIPTION_BYTES = 20 * 1024 * 1024;

/** YAML aliases resolved per document: a few hundred in real descriptions, billions in an expansion attack. */
export const MAX_YAML_ALIASES = 1000;

/** Files a description may reference (relative `$ref`s), the main one included. */
export const MAX_REFERENCED_FILES = 200;

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
