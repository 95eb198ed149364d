import { html, type Html } from './html.js';
import { layout } from './layout.js';

/** A page that only says something went wrong (or is done), in words, with a way on. */
export function messagePage(title: string, message: string, link?: { href: string; text: string }): Html {
  return layout({
    title,
    body: html`<h1>${title}</h1><p role="status">${message}</p>${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : ''}`,
  });
}
