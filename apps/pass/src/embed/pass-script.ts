/**
 * The embedded client script served at GET /pass.js. `TruoraPass.init({ clientId, redirectUri, scope,
 * onSuccess, onError })` configures it; `TruoraPass.authorize({ state? })` opens pass's authorization page
 * in a popup with response_mode=web_message and delivers the outcome from the popup's postMessage:
 * onSuccess({ code, state, code_verifier }) or onError({ error, error_description, state }). The script makes
 * the PKCE pair (S256) itself: the page hands code and code_verifier to its server for the token exchange. Messages from any origin but
 * pass's, or for another state, are ignored. redirectUri is the embedding page's origin, registered and
 * allow-listed for the application.
 */
export const passScript = (passUrl: string): string => `(function (win) {
  'use strict';
  var PASS_URL = ${JSON.stringify(passUrl)};
  var config = null;
  function randomState() {
    var bytes = new Uint8Array(16);
    win.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function base64url(bytes) {
    var text = '';
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return win.btoa(text).split('+').join('-').split('/').join('_').replace(/=+$/, '');
  }
  function pkcePair() {
    var bytes = new Uint8Array(32);
    win.crypto.getRandomValues(bytes);
    var verifier = base64url(bytes);
    return win.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)).then(function (hash) {
      return { verifier: verifier, challenge: base64url(new Uint8Array(hash)) };
    });
  }
  function init(options) {
    if (!options || !options.clientId || !options.redirectUri) throw new Error('TruoraPass.init needs clientId and redirectUri');
    config = {
      clientId: String(options.clientId),
      redirectUri: String(options.redirectUri),
      scope: String(options.scope || 'openid'),
      onSuccess: options.onSuccess || function () {},
      onError: options.onError || function () {}
    };
  }
  function authorize(options) {
    if (!config) throw new Error('call TruoraPass.init first');
    var state = (options && options.state) || randomState();
    var url = new URL(PASS_URL + '/authorize');
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('redirect_uri', config.redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('response_mode', 'web_message');
    url.searchParams.set('scope', config.scope);
    url.searchParams.set('state', state);
    // Opened at once (within the click), sent to pass once the PKCE challenge is computed.
    var popup = win.open('about:blank', 'truora-pass', 'width=480,height=720');
    if (!popup) {
      config.onError({ error: 'popup_blocked', error_description: 'the browser blocked the sign-in window', state: state });
      return;
    }
    var verifier = null;
    pkcePair().then(function (pair) {
      verifier = pair.verifier;
      url.searchParams.set('code_challenge', pair.challenge);
      url.searchParams.set('code_challenge_method', 'S256');
      popup.location.href = url.toString();
    }, function () {
      popup.close();
      config.onError({ error: 'pkce_unavailable', error_description: 'this page is not a secure context (https)', state: state });
    });
    function onMessage(event) {
      if (event.origin !== new URL(PASS_URL).origin) return;
      var data = event.data;
      if (!data || data.type !== 'authorization_response' || !data.response || data.response.state !== state) return;
      win.removeEventListener('message', onMessage);
      var r = data.response;
      if (r.error) config.onError({ error: r.error, error_description: r.error_description, state: r.state });
      else config.onSuccess({ code: r.code, state: r.state, code_verifier: verifier });
    }
    win.addEventListener('message', onMessage);
  }
  win.TruoraPass = { init: init, authorize: authorize };
})(window);
`;
