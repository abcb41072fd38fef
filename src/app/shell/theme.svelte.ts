/**
 * The page's colour theme: the system's (prefers-color-scheme) unless the header's switch picked one, which
 * this browser remembers. The colours themselves are theme.css's light-dark() pairs; this module only pins
 * `data-theme` on <html> and tells charts (drawn on a canvas, outside CSS) when to draw again.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';

/** The localStorage key of the choice (absent: follow the system). */
export const THEME_KEY = 'rp-theme';

function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    // Storage can be blocked (a privacy setting): the system's theme then.
    return 'system';
  }
}

class Theme {
  choice = $state<ThemeChoice>(storedChoice());
  #systemDark = $state(false);
  /** The theme on screen. */
  readonly resolved = $derived<'light' | 'dark'>(this.choice === 'system' ? (this.#systemDark ? 'dark' : 'light') : this.choice);

  constructor() {
    const query = matchMedia('(prefers-color-scheme: dark)');
    this.#systemDark = query.matches;
    query.addEventListener('change', (event) => (this.#systemDark = event.matches));
    this.#apply();
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    try {
      if (choice === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice);
    } catch {
      // Not remembered, still applied.
    }
    this.#apply();
  }

  #apply(): void {
    if (this.choice === 'system') delete document.documentElement.dataset['theme'];
    else document.documentElement.dataset['theme'] = this.choice;
  }
}

export const theme = new Theme();

/**
 * The colours of theme variables as a canvas takes them (`rgb(…)`): a custom property's computed value is
 * its light-dark() text, so each is resolved as the `color` of a hidden probe next to `target`.
 */
export function themeColors<const N extends readonly string[]>(target: Element, names: N): { [K in keyof N]: string } {
  const probe = document.createElement('span');
  probe.hidden = true;
  (target.parentElement ?? document.body).append(probe);
  try {
    return names.map((name) => {
      probe.style.color = `var(${name})`;
      return getComputedStyle(probe).color;
    }) as { [K in keyof N]: string };
  } finally {
    probe.remove();
  }
}
