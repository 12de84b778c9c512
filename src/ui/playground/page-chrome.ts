/**
 * What the playground pages share with the app: its style sheet and its theme — the person's choice remembered in
 * localStorage under the app's key (else the system's), applied before the first paint by the page's inline
 * script, switched by the header's button for the app too, and followed when the app changes it in another tab.
 */
import '../styles.css';
import './playground.css';
import { asTheme, themeStorageKey, type Theme } from '../theme';

function storedTheme(): Theme | null {
  try {
    return asTheme(localStorage.getItem(themeStorageKey));
  } catch {
    return null; // storage disabled: the button still switches the theme for this visit
  }
}

export function followAppTheme(button: HTMLButtonElement): void {
  const system = matchMedia('(prefers-color-scheme: dark)');
  let choice = storedTheme();
  const theme = (): Theme => choice ?? (system.matches ? 'dark' : 'light');
  const show = () => {
    document.documentElement.dataset['theme'] = theme();
    // As in the app, the button says what it switches to.
    const next = theme() === 'dark' ? 'light' : 'dark';
    button.title = `Switch to the ${next} theme (remembered in this browser)`;
    const icon = document.createElement('span');
    icon.setAttribute('aria-hidden', 'true');
    icon.textContent = next === 'dark' ? '☾' : '☀';
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = next === 'dark' ? 'Dark theme' : 'Light theme';
    button.replaceChildren(icon, ' ', label);
  };
  button.addEventListener('click', () => {
    choice = theme() === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(themeStorageKey, choice);
    } catch {
      // A full or disabled storage only loses the memory of the choice, not the choice.
    }
    show();
  });
  system.addEventListener('change', show);
  addEventListener('storage', (event) => {
    if (!(event instanceof StorageEvent) || event.key !== themeStorageKey) return;
    choice = asTheme(event.newValue);
    show();
  });
  show();
}
