import { CAPTURE_CHECKS } from './capture-checks';

/**
 * The page's capture module (served as /web/assets/capture.js on upload steps; plain ES5, no build
 * step, no third party). Document steps open the rear camera with a document-shaped frame, face steps
 * the front camera with an oval; every 250 ms the frame inside the guide is checked on the device
 * (capture-checks: light, sharpness, the document filling the frame, stillness) and the advice is shown
 * in a polite live region; three passing frames in a row take the photo, a shutter button appears after
 * four seconds. The photo goes into the slot's file input (so the form's Send uploads it, and nothing
 * leaves the device before), with a preview and "retake"; front then back as the step asks. Without a
 * camera or its permission the file inputs stay, and a chosen image passes the same light and
 * sharpness checks (a dark or blurry one is refused with the advice). The page needs no CSP change:
 * the video plays from srcObject and previews are data: URLs.
 */
export const CAPTURE_SCRIPT =
  CAPTURE_CHECKS +
  String.raw`(function () {
  'use strict';
  var form = document.getElementById('upload-form');
  var camera = document.getElementById('camera');
  if (!form || !camera) return;
  var kind = form.getAttribute('data-capture') === 'face' ? 'face' : 'document';
  var M = JSON.parse(form.getAttribute('data-capture-messages') || '{}');
  var inputs = Array.prototype.slice.call(form.querySelectorAll('input[type="file"]'));
  var video = document.getElementById('camera-video');
  var guide = camera.querySelector('.guide');
  var title = document.getElementById('camera-title');
  var advice = document.getElementById('capture-advice');
  var shutter = document.getElementById('shutter');
  var nextSide = document.getElementById('next-side');
  var useFile = document.getElementById('use-file');
  var status = document.getElementById('status');
  var stream = null, slot = -1, timer = null, passes = 0, previous = null, started = 0, lastAdvice = '';
  var analysis = document.createElement('canvas');
  var ID1 = 85.6 / 54; // an ID card (ISO/IEC 7810 ID-1); passports' data pages are close to it
  var FACE_BOX = { x: 0.2, y: 0.15, w: 0.6, h: 0.7 };

  function say(text) {
    if (text === lastAdvice) return;
    lastAdvice = text;
    advice.textContent = text;
  }

  function labelOf(input) {
    var label = document.querySelector('label[for="' + input.id + '"]');
    return label ? label.textContent.replace(/\s*\*$/, '') : input.name;
  }

  /** The guide's rectangle as fractions of the video frame. */
  function guideBox(vw, vh) {
    if (kind === 'face') return FACE_BOX;
    var w = 0.88, h = (w * vw) / ID1 / vh;
    if (h > 0.88) { h = 0.88; w = (h * vh * ID1) / vw; }
    return { x: (1 - w) / 2, y: (1 - h) / 2, w: w, h: h };
  }

  /** RGBA of a region of an image or video frame, reduced to the analysis width (never enlarged). */
  function pixels(source, sw, sh, box) {
    var cw = box.w * sw, ch = box.h * sh;
    var w = Math.max(1, Math.round(Math.min(KycChecks.ANALYSIS_WIDTH, cw)));
    var h = Math.max(1, Math.round((ch * w) / cw));
    analysis.width = w; analysis.height = h;
    var ctx = analysis.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(source, box.x * sw, box.y * sh, cw, ch, 0, 0, w, h);
    return { data: ctx.getImageData(0, 0, w, h).data, w: w, h: h };
  }

  function check(source, sw, sh, box, prev) {
    var p = pixels(source, sw, sh, box);
    return KycChecks.analyse(p.data, p.w, p.h, kind, prev);
  }

  function fieldOf(input) { return input.closest('.field'); }

  function fieldError(input, text) {
    var p = document.getElementById(input.id + '-error');
    if (text) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    if (p) { p.textContent = text || ''; p.hidden = !text; }
  }

  function dataUrlToFile(url, name) {
    var bytes = atob(url.split(',')[1]), arr = new Uint8Array(bytes.length);
    for (var i = 0; i < bytes.length; i++) arr[i] = bytes.charCodeAt(i);
    return new File([arr], name, { type: 'image/jpeg' });
  }

  /** Shows the accepted photo under its field, with "retake". */
  function preview(input, url) {
    var field = fieldOf(input);
    var old = field.querySelector('.preview');
    if (old) field.removeChild(old);
    var figure = document.createElement('figure');
    figure.className = 'preview';
    var img = document.createElement('img');
    img.src = url;
    img.alt = M.previewOf + ' ' + labelOf(input);
    var retake = document.createElement('button');
    retake.type = 'button';
    retake.className = 'secondary retake';
    retake.textContent = M.retake;
    retake.setAttribute('aria-label', M.retake + ': ' + labelOf(input));
    retake.addEventListener('click', function () {
      input.value = '';
      field.removeChild(figure);
      if (form.getAttribute('data-camera') === 'off') input.focus();
      else open(inputs.indexOf(input));
    });
    figure.appendChild(img);
    figure.appendChild(retake);
    field.appendChild(figure);
  }

  function setFile(input, url) {
    var dt = new DataTransfer();
    dt.items.add(dataUrlToFile(url, input.name + '.jpg'));
    input.files = dt.files;
    fieldError(input, '');
    preview(input, url);
  }

  function empty(input) { return !(input.files && input.files.length); }

  function nextEmpty(from) {
    for (var i = 0; i < inputs.length; i++) {
      var k = (from + i) % inputs.length;
      if (empty(inputs[k])) return k;
    }
    return -1;
  }

  function stopLoop() { if (timer) clearTimeout(timer); timer = null; }

  function stopCamera() {
    stopLoop();
    if (stream) stream.getTracks().forEach(function (t) { t.stop(); });
    stream = null;
    video.srcObject = null;
    camera.hidden = true;
    form.removeAttribute('data-camera');
  }

  function fallback(text) {
    stopCamera();
    form.setAttribute('data-camera', 'off');
    if (text) status.textContent = text;
  }

  function place() {
    if (!video.videoWidth) return;
    var box = guideBox(video.videoWidth, video.videoHeight);
    guide.style.left = box.x * 100 + '%';
    guide.style.top = box.y * 100 + '%';
    guide.style.width = box.w * 100 + '%';
    guide.style.height = box.h * 100 + '%';
  }

  function take() {
    stopLoop();
    var input = inputs[slot];
    var canvas = document.createElement('canvas');
    canvas.width = video.videoWidth; canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0);
    setFile(input, canvas.toDataURL('image/jpeg', 0.92));
    guide.className = 'guide';
    shutter.hidden = true;
    var next = nextEmpty(slot);
    if (next < 0) {
      stopCamera();
      say('');
      status.textContent = M.ready;
      var send = form.querySelector('button[type="submit"]');
      if (send) send.focus();
      return;
    }
    slot = next;
    say(M.taken);
    nextSide.textContent = M.continueWith + ' ' + labelOf(inputs[next]);
    nextSide.hidden = false;
    nextSide.focus();
  }

  function loop() {
    timer = null;
    if (!stream || slot < 0) return;
    if (video.videoWidth) {
      place();
      var r = check(video, video.videoWidth, video.videoHeight, guideBox(video.videoWidth, video.videoHeight), previous);
      previous = r.thumbnail;
      passes = r.advice === 'ok' ? passes + 1 : 0;
      guide.className = r.advice === 'ok' ? 'guide ok' : 'guide';
      say(r.advice === 'ok' ? M.advice.ok : M.advice[r.advice]);
      camera.setAttribute('data-advice', r.advice);
      if (passes >= 3) return take();
      if (Date.now() - started > 4000) shutter.hidden = false;
    }
    timer = setTimeout(loop, 250);
  }

  /** Capture for the slot at index i (the camera opens if it is not open). */
  function open(i) {
    stopLoop();
    slot = i;
    passes = 0; previous = null; started = Date.now();
    title.textContent = labelOf(inputs[i]);
    nextSide.hidden = true;
    shutter.hidden = true;
    camera.hidden = false;
    form.setAttribute('data-camera', 'on');
    if (stream) { say(M.advice.start); loop(); return; }
    say(M.opening);
    navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: kind === 'face' ? 'user' : 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } }
    }).then(function (s) {
      stream = s;
      video.srcObject = s;
      video.muted = true;
      video.setAttribute('playsinline', '');
      var played = video.play();
      if (played && played.catch) played.catch(function () {});
      say(M.advice.start);
      loop();
    }, function () {
      fallback(M.noCamera);
    });
  }

  shutter.addEventListener('click', function () {
    if (!video.videoWidth) return;
    var r = check(video, video.videoWidth, video.videoHeight, guideBox(video.videoWidth, video.videoHeight), null);
    var refused = KycChecks.fileAdvice(r);
    if (refused !== 'ok') return say(M.advice[refused]);
    take();
  });
  nextSide.addEventListener('click', function () { open(slot); });
  useFile.addEventListener('click', function () {
    var i = slot >= 0 ? slot : 0;
    fallback('');
    inputs[i].focus();
  });

  /** A chosen file passes the light and sharpness checks before it is accepted. */
  inputs.forEach(function (input) {
    input.addEventListener('change', function () {
      var file = input.files && input.files[0];
      if (!file) return;
      input.setAttribute('data-checking', 'true');
      var reader = new FileReader();
      reader.onload = function () {
        var img = new Image();
        img.onload = function () {
          input.removeAttribute('data-checking');
          var box = kind === 'face' ? FACE_BOX : { x: 0, y: 0, w: 1, h: 1 };
          var r = KycChecks.fileAdvice(check(img, img.naturalWidth, img.naturalHeight, box, null));
          if (r !== 'ok') {
            input.value = '';
            var old = fieldOf(input).querySelector('.preview');
            if (old) fieldOf(input).removeChild(old);
            fieldError(input, M.advice[r]);
            say(M.advice[r]);
            document.getElementById('errors').textContent = labelOf(input) + ': ' + M.advice[r];
            return;
          }
          fieldError(input, '');
          preview(input, reader.result);
          if (stream && inputs.indexOf(input) === slot) {
            var next = nextEmpty(slot);
            if (next < 0) stopCamera(); else open(next);
          }
        };
        img.onerror = function () { input.removeAttribute('data-checking'); };
        img.src = reader.result;
      };
      reader.onerror = function () { input.removeAttribute('data-checking'); };
      reader.readAsDataURL(file);
    });
  });

  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || typeof DataTransfer === 'undefined') return fallback('');
  var first = nextEmpty(0);
  if (first >= 0) open(first);
})();
`;
