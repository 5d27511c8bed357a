import sanitizeHtml from 'sanitize-html'

const colour = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]+)$/i
const size = /^\d+(\.\d+)?(px|em|rem|%|pt)$/

/**
 * What the rich-text editor may keep: ordinary formatting, tables, images, links and embedded
 * videos; no scripts, event handlers, frames, forms or javascript: URLs, and only a few harmless
 * inline styles.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'video', 'source', 'font'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    video: ['src', 'poster', 'controls', 'width', 'height'],
    source: ['src', 'type'],
    font: ['color', 'size'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['style'],
  },
  allowedStyles: {
    '*': {
      color: [colour],
      'background-color': [colour],
      'text-align': [/^(left|right|center|justify)$/],
      'font-size': [size],
      'font-weight': [/^(normal|bold|\d{3})$/],
      'font-style': [/^(normal|italic)$/],
      'text-decoration': [/^(none|underline|line-through)$/],
      'line-height': [/^\d+(\.\d+)?(px|em|%)?$/],
      'text-indent': [size],
      width: [size],
      height: [size],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], video: ['http', 'https'], source: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    // A link that opens a new tab must not hand the opener to the page it opens.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
}

/** Cleans rich text from the editor before it is stored. */
export function sanitizeRichText(html: string): string {
  return html ? sanitizeHtml(html, options) : ''
}
