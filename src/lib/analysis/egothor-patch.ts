/**
 * Egothor patch commands (Lucene's `org.egothor.stemmer.Diff.apply`), which turn a word into its stem.
 *
 * A command is a sequence of two-character instructions applied from the end of the word towards its start;
 * the second character is a letter for `I`/`R` and a count (`a` = 1, `b` = 2, …) for `-`/`D`:
 *   `-n` skip n characters, `Rc` replace the current character by c, `Dn` delete n characters ending at the
 *   current one, `Ic` insert c after the current position.
 * Lucene applies them to a StringBuilder and stops silently at the first instruction that would index outside
 * it (the exceptions are caught), keeping what was already changed; tables built from one language and
 * applied to other words (`mail` → `mcić`) rely on that, so this port reproduces each bounds check.
 */

/** `word` with `patch` applied, exactly as Diff.apply leaves its buffer. */
export function applyPatch(word: string, patch: string): string {
  let dest = word;
  let pos = dest.length - 1;
  if (pos < 0) return dest;
  const steps = Math.floor(patch.length / 2);
  for (let i = 0; i < steps; i++) {
    const op = patch[2 * i];
    const param = patch[2 * i + 1]!;
    const count = param.charCodeAt(0) - 0x61 + 1;
    switch (op) {
      case '-':
        pos = pos - count + 1;
        break;
      case 'R':
        // StringBuilder.setCharAt: index must be in [0, length).
        if (pos < 0 || pos >= dest.length) return dest;
        dest = dest.slice(0, pos) + param + dest.slice(pos + 1);
        break;
      case 'D': {
        const last = pos;
        pos -= count - 1;
        // StringBuilder.delete(start, end): end is clamped to the length; start must be in [0, end].
        const end = Math.min(last + 1, dest.length);
        if (pos < 0 || pos > end) return dest;
        dest = dest.slice(0, pos) + dest.slice(end);
        break;
      }
      case 'I':
        pos += 1;
        // StringBuilder.insert(offset, c): offset must be in [0, length].
        if (pos < 0 || pos > dest.length) return dest;
        dest = dest.slice(0, pos) + param + dest.slice(pos);
        break;
    }
    pos--;
  }
  return dest;
}
