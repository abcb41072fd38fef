/** A word of a printed command line, quoted for a POSIX shell when it needs to be. */
export function quote(text: string): string {
  return /^[\w./:@=,+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
