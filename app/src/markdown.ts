import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * User-written text (check-in answers, comments, task descriptions) as Markdown, then sanitized by DOMPurify:
 * no script, event handler, style, form, frame or javascript: link survives, whatever was stored. Links open
 * in a new tab without the opener. The CSP of the app's pages is the second wall.
 */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/** A task list's box (`- [x] done`) is the only input that survives, and it can never be changed. */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'INPUT') return;
  if (node.getAttribute('type') !== 'checkbox') node.remove();
  else node.setAttribute('disabled', '');
});

/**
 * GFM task lists (`- [ ] reviewed`) as checkboxes: a tight list's item is wrapped in a label, so a screen reader
 * reads the box with its words ("reviewed, checkbox, not checked").
 */
marked.use({
  renderer: {
    listitem(item) {
      if (!item.task || item.loose) return false;
      return `<li><label>${this.parser.parse(item.tokens)}</label></li>\n`;
    },
  },
});

const ALLOWED = {
  ALLOWED_TAGS: ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'label', 'input'],
  ALLOWED_ATTR: ['href', 'title', 'target', 'rel', 'type', 'checked', 'disabled'],
  ALLOW_DATA_ATTR: false,
};

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true }) as string;
  return DOMPurify.sanitize(html, ALLOWED) as string;
}

/** Plain text with Rollcall's mentions (`<@uuid>`) shown as names before rendering. */
export function withMentions(text: string, names: Map<string, string>): string {
  return text.replace(/<@([0-9a-f-]{36})>/gi, (_, id: string) => `**@${(names.get(id.toLowerCase()) ?? 'someone').replace(/[*_`[\]]/g, '')}**`);
}
