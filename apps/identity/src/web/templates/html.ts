/** The end user's page builds its HTML with the platform's page kit (every interpolated value escaped). */
export { escapeHtml, flag, html, SafeHtml } from '@kyc/platform';
