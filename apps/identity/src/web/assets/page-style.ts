import { PAGE_STYLE as PLATFORM_PAGE_STYLE } from '@kyc/platform';

/**
 * The end user's page stylesheet (served as /web/assets/page.css): the platform's design of every page a
 * person sees (header, card, buttons, fields, notices, visible focus), then what only this page has (the
 * waiting spinner, the outcomes, the camera).
 */
const IDENTITY_ONLY = `
.waiting{display:flex;gap:.75rem;align-items:center}
.spinner{width:1.2rem;height:1.2rem;border:3px solid #c5cde0;border-top-color:#1e4690;border-radius:50%;
  animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
.result.success h1,.result.success{border-left:4px solid #1d7a3a;padding-left:.8rem}
.result.failure{border-left:4px solid #b3261e;padding-left:.8rem}
.waiting.slow .spinner{display:none}
.outcomes{list-style:none;padding:0;margin:0 0 1rem}
.outcomes li{padding:.3rem 0 .3rem 1.6rem;position:relative}
.outcomes li::before{position:absolute;left:0;font-weight:700}
.outcomes li[data-state=done]::before{content:"\\2713";color:#1d7a3a}
.outcomes li[data-state=failed]::before{content:"\\2717";color:#b3261e}
.camera{margin:1rem 0}
.camera-title{font-weight:600;margin:0 0 .4rem}
.viewfinder{position:relative;overflow:hidden;border-radius:.5rem;background:#000}
.viewfinder video{display:block;width:100%;height:auto}
.viewfinder.face video{transform:scaleX(-1)}
.guide{position:absolute;border:3px solid rgba(255,255,255,.9);border-radius:.6rem;box-shadow:0 0 0 100vmax rgba(0,0,0,.4);
  transition:border-color .2s}
.viewfinder.face .guide{border-radius:50%}
.guide.ok{border-color:#3ccf6e}
.advice{font-weight:600;min-height:1.5em;margin:.5rem 0}
.camera-actions{display:flex;flex-wrap:wrap;gap:.5rem}
.camera-actions button{margin-top:0}
form[data-camera=on] .field input[type=file]{display:none}
.preview{margin:.5rem 0}
.preview img{display:block;max-width:100%;max-height:14rem;border-radius:.3rem;border:1px solid #c5cde0}
`;

export const PAGE_STYLE = PLATFORM_PAGE_STYLE + IDENTITY_ONLY;
