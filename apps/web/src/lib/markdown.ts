import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { MAX_MARKDOWN_DEPTH, nestingDepth } from './markdown-depth.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Markdown to HTML that is safe to insert: raw HTML in the source is shown as text (never parsed),
 * images become links (no request leaves the origin), and DOMPurify cleans the result as a second
 * line of defence (it drops `javascript:` URLs and event-handler attributes).
 */
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
  },
});

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    node.setAttribute('target', '_blank');
  }
});

/**
 * The HTML of a project's content, or null when it cannot be rendered — nested deeper than
 * MAX_MARKDOWN_DEPTH, or the renderer failed on it —: the page then shows the text as it is.
 */
export function renderMarkdown(source: string): string | null {
  if (nestingDepth(source) > MAX_MARKDOWN_DEPTH) return null;
  try {
    const html = marked.parse(source, { async: false });
    return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'img', 'form'] });
  } catch {
    return null;
  }
}
