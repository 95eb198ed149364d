/**
 * The console's only script, served from /assets/console.js (the pages' CSP allows no
 * inline script). Everything works without it; it adds copy buttons, submits the
 * workspace switcher on change, and keeps a page that shows a secret from being
 * re-posted by a reload.
 */
export const CONSOLE_SCRIPT = `
(function () {
  var buttons = document.querySelectorAll('button[data-copy]');
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      button.hidden = false;
      button.addEventListener('click', function () {
        var source = document.getElementById(button.getAttribute('data-copy'));
        var status = document.getElementById(button.getAttribute('data-copy') + '-status');
        if (!source || !navigator.clipboard) return;
        navigator.clipboard.writeText(source.textContent.trim()).then(function () {
          if (status) status.textContent = 'Copied to the clipboard.';
        }, function () {
          if (status) status.textContent = 'Copying failed: select the text and copy it yourself.';
        });
      });
    })(buttons[i]);
  }

  var selects = document.querySelectorAll('select[data-autosubmit]');
  for (var j = 0; j < selects.length; j++) {
    selects[j].addEventListener('change', function (event) { event.target.form.submit(); });
  }

  var replace = document.querySelector('[data-replace-url]');
  if (replace && window.history.replaceState) window.history.replaceState(null, '', replace.getAttribute('data-replace-url'));
})();
`;
