/**
 * The end user's page script (served as /web/assets/page.js; plain ES5, no build step, no third
 * party). It submits the current step to the process API with the process's web key, uploads the
 * step's files through identity, polls while a validation runs, and redirects after the result.
 * While it waits, the outcome of each step is listed in words and, after a minute, the spinner gives way
 * to a note that the page updates by itself. Every change of step reloads the server-rendered page, whose heading then takes the focus; errors
 * go to the field (aria-invalid, its message) and to the alert region.
 */
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var main = document.getElementById('main');
  if (!main) return;
  var processId = main.getAttribute('data-process');
  var key = main.getAttribute('data-key');
  var errors = document.getElementById('errors');
  var status = document.getElementById('status');
  var heading = document.getElementById('heading');
  if (heading) heading.focus();

  function api(method, path, body) {
    var headers = { 'Service-API-Key': key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (res) {
        var retryAfter = Number(res.headers.get('retry-after')) || 0;
        return res.json().catch(function () { return {}; }).then(function (json) { return { status: res.status, body: json, retryAfter: retryAfter }; });
      });
  }

  function controls(form) {
    return Array.prototype.slice.call(form.querySelectorAll('input, select'));
  }

  function clearErrors(form) {
    errors.textContent = '';
    controls(form).forEach(function (el) {
      el.removeAttribute('aria-invalid');
      var p = document.getElementById(el.id + '-error');
      if (p) { p.textContent = ''; p.hidden = true; }
    });
  }

  function showErrors(form, list) {
    var first = null;
    list.forEach(function (e) {
      var el = form.querySelector('[name="' + e.name + '"]');
      if (!el) return;
      el.setAttribute('aria-invalid', 'true');
      var p = document.getElementById(el.id + '-error');
      if (p) { p.textContent = e.message; p.hidden = false; }
      if (!first) first = el;
    });
    errors.textContent = list.length ? list.map(function (e) { return e.label + ': ' + e.message; }).join(' ') : main.getAttribute('data-msg-error');
    if (first) first.focus();
  }

  function labelOf(el) {
    var label = document.querySelector('label[for="' + el.id + '"]');
    return label ? label.textContent.replace(/\s*\*$/, '') : el.name;
  }

  function localCheck(form) {
    var list = [];
    controls(form).forEach(function (el) {
      var empty = el.type === 'file' ? !(el.files && el.files.length) : !el.value.trim();
      if (el.required && empty) list.push({ name: el.name, label: labelOf(el), message: main.getAttribute('data-msg-required') });
      else if (!empty && el.validity && !el.validity.valid) list.push({ name: el.name, label: labelOf(el), message: main.getAttribute('data-msg-invalid') });
    });
    return list;
  }

  function serverErrors(form, res, fallbackName) {
    // A lockout (too many wrong codes) or a rate limit: the wait, in words, instead of a field error.
    if (res.status === 429) {
      var minutes = Math.max(1, Math.ceil((res.retryAfter || 60) / 60));
      errors.textContent = main.getAttribute('data-msg-too-many').replace('{minutes}', String(minutes));
      return;
    }
    var fields = (res.body && res.body.fields) || [];
    var list = fields.map(function (f) {
      var name = String(f.field || '').replace(/^expected_inputs\./, '');
      var el = form.querySelector('[name="' + name + '"]') || form.querySelector('[name="' + fallbackName + '"]');
      var required = /required/.test(String(f.message || ''));
      return { name: el ? el.name : name, label: el ? labelOf(el) : name,
               message: main.getAttribute(required ? 'data-msg-required' : 'data-msg-invalid') };
    });
    if (!list.length && fallbackName) {
      var el = form.querySelector('[name="' + fallbackName + '"]');
      if (el) list.push({ name: el.name, label: labelOf(el), message: main.getAttribute('data-msg-invalid') });
    }
    showErrors(form, list);
  }

  function busy(form, on) {
    var button = form.querySelector('button[type="submit"]');
    if (!button) return;
    button.disabled = on;
    if (on) {
      button.setAttribute('data-label', button.textContent);
      button.textContent = button.getAttribute('data-working');
      status.textContent = button.getAttribute('data-working');
    } else if (button.getAttribute('data-label')) {
      button.textContent = button.getAttribute('data-label');
      status.textContent = '';
    }
  }

  function failed(form) {
    return function () { busy(form, false); errors.textContent = main.getAttribute('data-msg-error'); };
  }

  // Device information (PUT /v1/processes/{id}): the codes of e-mail and phone steps follow its language.
  if (main.getAttribute('data-device') === 'send') {
    var device = {
      language: document.documentElement.lang,
      user_agent: navigator.userAgent,
      screen: window.screen ? window.screen.width + 'x' + window.screen.height : undefined,
      languages: navigator.languages ? Array.prototype.slice.call(navigator.languages, 0, 5) : undefined
    };
    api('PUT', '/v1/processes/' + encodeURIComponent(processId), { device_info: JSON.stringify(device) })
      .then(function (res) { if (res.status === 200) main.setAttribute('data-updated', res.body.update_date); }, function () {});
  }

  var stepForm = document.getElementById('step-form');
  if (stepForm) stepForm.addEventListener('submit', function (event) {
    event.preventDefault();
    clearErrors(stepForm);
    var local = localCheck(stepForm);
    if (local.length) return showErrors(stepForm, local);
    var inputs = [];
    controls(stepForm).forEach(function (el) {
      if (el.value.trim()) inputs.push({ name: el.name, value: el.value.trim() });
    });
    var body = {
      step_id: stepForm.getAttribute('data-step-id'),
      verification_id: stepForm.getAttribute('data-verification-id'),
      type: stepForm.getAttribute('data-type')
    };
    if (inputs.length) body.expected_inputs = inputs;
    busy(stepForm, true);
    api('POST', '/v1/processes/' + encodeURIComponent(processId), body).then(function (res) {
      if (res.status === 200) return location.reload();
      busy(stepForm, false);
      serverErrors(stepForm, res);
    }, failed(stepForm));
  });

  function readFile(file) {
    return new Promise(function (resolve, reject) {
      var reader = new FileReader();
      reader.onload = function () { resolve(reader.result); };
      reader.onerror = function () { reject(reader.error); };
      reader.readAsDataURL(file);
    });
  }

  var uploadForm = document.getElementById('upload-form');
  if (uploadForm) uploadForm.addEventListener('submit', function (event) {
    event.preventDefault();
    // capture.js is still checking a chosen file: send once it has accepted or refused it.
    if (uploadForm.querySelector('[data-checking]') && uploadForm.requestSubmit)
      return setTimeout(function () { uploadForm.requestSubmit(); }, 200);
    clearErrors(uploadForm);
    var local = localCheck(uploadForm);
    if (local.length) return showErrors(uploadForm, local);
    busy(uploadForm, true);
    var files = controls(uploadForm).filter(function (el) { return el.files && el.files.length; });
    var chain = Promise.resolve(true);
    files.forEach(function (el) {
      chain = chain.then(function (ok) {
        if (!ok) return false;
        return readFile(el.files[0]).then(function (data) {
          return api('PUT', '/web/processes/' + encodeURIComponent(processId) + '/uploads/' + el.name, { file: data });
        }).then(function (res) {
          if (res.status === 200) return true;
          busy(uploadForm, false);
          serverErrors(uploadForm, res, el.name);
          return false;
        });
      });
    });
    chain.then(function (ok) { if (ok) location.reload(); }, failed(uploadForm));
  });

  // While a validation runs: poll, reload on change; after a minute the spinner gives way to words.
  var waiting = document.querySelector('[data-poll]');
  if (waiting) {
    var updated = main.getAttribute('data-updated');
    var since = Date.now();
    var slow = function () {
      if (waiting.className.indexOf('slow') >= 0 || Date.now() - since < 60000) return;
      waiting.className += ' slow';
      waiting.querySelector('.waiting-text').textContent = waiting.getAttribute('data-slow');
      status.textContent = waiting.getAttribute('data-slow');
    };
    var poll = function () {
      api('GET', '/v1/processes/' + encodeURIComponent(processId)).then(function (res) {
        if (res.status === 200 && res.body.update_date !== updated) return location.reload();
        slow();
        setTimeout(poll, waiting.className.indexOf('slow') >= 0 ? 5000 : 1500);
      }, function () { slow(); setTimeout(poll, 5000); });
    };
    setTimeout(poll, 1000);
  }

  var note = document.getElementById('redirect-note');
  if (note) {
    var seconds = Number(note.getAttribute('data-seconds')) || 5;
    setTimeout(function () { location.assign(note.getAttribute('data-redirect')); }, seconds * 1000);
  }
})();
`;
