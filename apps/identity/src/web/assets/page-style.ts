/** The end user's page stylesheet (served as /web/assets/page.css). Visible focus, readable sizes, no third party. */
export const PAGE_STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:1.05rem;line-height:1.5;color:#1b1f29;
  background:#f4f6fa;margin:0}
header{background:#1e4690;color:#fff;padding:.75rem 1.25rem;display:flex;justify-content:space-between;flex-wrap:wrap}
header p{margin:0}
.brand{font-weight:600}
main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 1.75rem;border-radius:.5rem;
  box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin-top:0}
h1:focus{outline:none}
.field{margin:1rem 0}
label{display:block;font-weight:600;margin-bottom:.25rem}
.hint{margin:.1rem 0 .35rem;color:#4a5060;font-size:.92rem}
input,select{width:100%;padding:.6rem;border:1px solid #7a8296;border-radius:.3rem;font:inherit;background:#fff}
input[type=file]{padding:.4rem}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.field-error{color:#b3261e;margin:.3rem 0 0;font-size:.95rem}
button{font:inherit;font-weight:600;padding:.65rem 1.4rem;border:0;border-radius:.3rem;background:#1e4690;color:#fff;
  cursor:pointer;margin-top:.5rem}
button[disabled]{background:#6b7a99;cursor:progress}
:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.errors:not(:empty){color:#b3261e;background:#fdecea;padding:.6rem .8rem;border-radius:.3rem;margin-top:1rem}
.notice{background:#fff4e5;padding:.6rem .8rem;border-radius:.3rem}
.waiting{display:flex;gap:.75rem;align-items:center}
.spinner{width:1.2rem;height:1.2rem;border:3px solid #c5cde0;border-top-color:#1e4690;border-radius:50%;
  animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
.result.success h1,.result.success{border-left:4px solid #1d7a3a;padding-left:.8rem}
.result.failure{border-left:4px solid #b3261e;padding-left:.8rem}
a{color:#1e4690}
.waiting.slow .spinner{display:none}
.outcomes{list-style:none;padding:0;margin:0 0 1rem}
.outcomes li{padding:.3rem 0 .3rem 1.6rem;position:relative}
.outcomes li::before{position:absolute;left:0;font-weight:700}
.outcomes li[data-state=done]::before{content:"\\2713";color:#1d7a3a}
.outcomes li[data-state=failed]::before{content:"\\2717";color:#b3261e}
button.secondary{background:#fff;color:#1e4690;border:2px solid #1e4690}
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
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
