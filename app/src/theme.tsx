import { computed, signal } from '@preact/signals';
import { t } from './i18n.ts';

/**
 * Light or dark: the system's (prefers-color-scheme) until the person toggles, then theirs, kept in this browser.
 * Toggling back to what the system shows forgets the choice, so the page follows the system again.
 */
type Choice = 'light' | 'dark' | 'system';
const stored = localStorage.getItem('rollcall.theme');
export const theme = signal<Choice>(stored === 'light' || stored === 'dark' ? stored : 'system');

const media = matchMedia('(prefers-color-scheme: dark)');
const systemDark = signal(media.matches);
media.addEventListener('change', () => (systemDark.value = media.matches));

/** Whether the page shows dark now. */
export const dark = computed(() => (theme.value === 'system' ? systemDark.value : theme.value === 'dark'));

function apply(choice: Choice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}
apply(theme.value);

export function toggleTheme(): void {
  const next = dark.value ? 'light' : 'dark';
  const choice: Choice = (next === 'dark') === systemDark.value ? 'system' : next;
  if (choice === 'system') localStorage.removeItem('rollcall.theme');
  else localStorage.setItem('rollcall.theme', choice);
  apply(choice);
  theme.value = choice;
}

/** A switch in the header: pressed while the page is dark. */
export function ThemeToggle() {
  return (
    <button type="button" class="icon-button theme-toggle" aria-pressed={dark.value} onClick={toggleTheme} title={t('theme.dark')}>
      <span class="sr-only">{t('theme.dark')}</span>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
        {dark.value ? (
          <path fill="currentColor" d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
        ) : (
          <g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">
            <circle cx="12" cy="12" r="4.5" />
            <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
          </g>
        )}
      </svg>
    </button>
  );
}
