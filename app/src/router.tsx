import type { ComponentChildren } from 'preact';
import { signal } from './state.ts';

/** The path under /app/ the app shows; the History API keeps it in the address bar. */
export const route = signal(location.pathname);
addEventListener('popstate', () => route.set(location.pathname));

/** Shows `path`; `replace` takes the current address out of the history (a spent invitation link). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname && !options.replace) return;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route.set(path);
  // Move focus to the new page's content, so keyboard and screen-reader users start there.
  queueMicrotask(() => document.getElementById('main')?.focus());
}

/** A link that changes the page without a reload (a modified click opens a tab as usual). */
interface LinkProps {
  href: string;
  children: ComponentChildren;
  onClick?: () => void;
  onKeyDown?: (e: KeyboardEvent) => void;
  'aria-current'?: 'page';
  'aria-describedby'?: string;
}

export function Link({ href, children, onClick, ...rest }: LinkProps) {
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        onClick?.();
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
