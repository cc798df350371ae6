/** Escapes LIKE/ILIKE wildcards so user text matches literally (the default escape character is a backslash). */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** An ILIKE pattern matching the trimmed text anywhere. */
export const containsPattern = (s: string): string => `%${escapeLike(s.trim())}%`;
