import { html, type Html } from '../pages/html.js';

/**
 * Text to copy, with a Copy button that /assets/console.js reveals (without script the
 * text is still there to select) and a live region that says whether it worked.
 */
export function copyBlock(id: string, label: string, text: string): Html {
  return html`<div class="copy-block">
    <pre id="${id}" class="secret" tabindex="0" aria-label="${label}">${text}</pre>
    <div class="copy-actions">
      <button type="button" class="secondary" data-copy="${id}" hidden>Copy ${label.toLowerCase()}</button>
      <span id="${id}-status" class="muted" role="status" aria-live="polite"></span>
    </div>
  </div>`;
}
