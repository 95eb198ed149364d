/**
 * The console's only script, served from /assets/console.js (the pages' CSP allows no
 * inline script). Everything works without it; it adds copy buttons, submits the
 * workspace switcher and the pipeline chooser when one is picked, moves focus to the reason a form
 * was refused, checks a note's length as the server counts it, and keeps a page that shows a secret from being re-posted by a reload.
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

  // A choice made with the pointer goes at once. Arrow keys on a closed select change its
  // value (and fire change) at every press, so a keyboard user goes on with Enter or the
  // form's button instead of being sent to the first option they pass.
  var selects = document.querySelectorAll('select[data-autosubmit]');
  for (var j = 0; j < selects.length; j++) {
    (function (select) {
      var byKeyboard = false;
      select.addEventListener('keydown', function (event) {
        byKeyboard = true;
        if (event.key === 'Enter') {
          event.preventDefault();
          select.form.submit();
        }
      });
      select.addEventListener('pointerdown', function () { byKeyboard = false; });
      select.addEventListener('change', function () { if (!byKeyboard) select.form.submit(); });
    })(selects[j]);
  }

  // A refused form comes back as a new page with its reason above it: focus goes to the
  // reason (read out first, and Tab goes on into the form) instead of the top of the page.
  var refusal = document.querySelector('main .error[role="alert"]');
  if (refusal && !document.querySelector('[autofocus]')) {
    refusal.setAttribute('tabindex', '-1');
    refusal.focus();
  }

  // A note's limit counted as the server counts it: characters (code points) of the trimmed
  // text. maxlength would count UTF-16 units, an emoji as two, and cut a paste short silently.
  var limited = document.querySelectorAll('textarea[data-max-characters]');
  for (var k = 0; k < limited.length; k++) {
    (function (area) {
      var max = Number(area.getAttribute('data-max-characters'));
      var check = function () {
        var count = Array.from(area.value.trim()).length;
        area.setCustomValidity(count > max ? 'Up to ' + max.toLocaleString('en') + ' characters: this note has ' + count.toLocaleString('en') + '.' : '');
      };
      area.addEventListener('input', check);
      check();
    })(limited[k]);
  }

  var replace = document.querySelector('[data-replace-url]');
  if (replace && window.history.replaceState) window.history.replaceState(null, '', replace.getAttribute('data-replace-url'));
})();
`;
