import { t } from './i18n.ts';
import { renderMarkdown } from './markdown.ts';

/** An error for the person, announced by screen readers. */
export function ErrorNote({ message }: { message: string | null }) {
  if (!message) return null;
  return <p class="error" role="alert">{message}</p>;
}

/** User-written Markdown, sanitized (markdown.ts) before it becomes HTML. */
export function Markdown({ text, class: className }: { text: string; class?: string }) {
  return <div class={`md ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
}

export function Empty({ children }: { children: string }) {
  return <p class="muted empty">{children}</p>;
}

export function Loading() {
  return <p class="muted" role="status">{t('loading')}</p>;
}
