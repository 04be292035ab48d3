/**
 * The embedded client script served at GET /pass.js. `TruoraPass.init({ clientId, redirectUri, scope,
 * onSuccess, onError })` configures it; `TruoraPass.authorize({ state? })` opens pass's authorization page
 * in a popup with response_mode=web_message and delivers the outcome from the popup's postMessage:
 * onSuccess({ code, state }) or onError({ error, error_description, state }). Messages from any origin but
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
    var popup = win.open(url.toString(), 'truora-pass', 'width=480,height=720');
    if (!popup) {
      config.onError({ error: 'popup_blocked', error_description: 'the browser blocked the sign-in window', state: state });
      return;
    }
    function onMessage(event) {
      if (event.origin !== new URL(PASS_URL).origin) return;
      var data = event.data;
      if (!data || data.type !== 'authorization_response' || !data.response || data.response.state !== state) return;
      win.removeEventListener('message', onMessage);
      var r = data.response;
      if (r.error) config.onError({ error: r.error, error_description: r.error_description, state: r.state });
      else config.onSuccess({ code: r.code, state: r.state });
    }
    win.addEventListener('message', onMessage);
  }
  win.TruoraPass = { init: init, authorize: authorize };
})(window);
`;
