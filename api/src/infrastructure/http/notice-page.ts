import { escapeHtml } from './html.js';

/**
 * The small page a mailed link opens (newsletter, store alerts), in the reader's language: it
 * works from any mail client without the web app, and links to the public site.
 */
export function noticePage(
  heading: string,
  homeLabel: string,
  language: string,
  publicUrl: string,
  /** A button that confirms: a form POST to the page's own address, as RFC 8058's one-click sends. */
  confirm?: string,
): string {
  const text = escapeHtml(heading);
  const form = confirm
    ? `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" style="font:inherit;padding:.6rem 1.2rem">${escapeHtml(confirm)}</button></form>\n`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text}</title></head>
<body style="font-family:Arial,'Noto Sans',sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5">
<h1 style="font-size:1.4rem">${text}</h1>
${form}<p><a href="${escapeHtml(publicUrl)}">${escapeHtml(homeLabel)}</a></p>
</body></html>`;
}
