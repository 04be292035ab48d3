/**
 * The one design of every page a person sees (identity's end-user page, pass's sign-in, consent and
 * approval pages): a header band, one card, primary and secondary buttons, fields, notices; mobile first,
 * visible focus, readable sizes, colours of at least 4.5:1 contrast, no third party. Each service serves it
 * from its own origin (CSP `style-src 'self'`); a page adds only what is its own after it.
 */
export const PAGE_STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:1.05rem;line-height:1.5;color:#1b1f29;
  background:#f4f6fa;margin:0}
header{background:#1e4690;color:#fff;padding:.75rem 1.25rem;display:flex;justify-content:space-between;flex-wrap:wrap;
  gap:.25rem 1rem}
header p{margin:0}
.brand{font-weight:600}
main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 1.75rem;border-radius:.5rem;
  box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin-top:0}
h1:focus{outline:none}
h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
h3{font-size:1.05rem;margin:.75rem 0 .25rem}
.field{margin:1rem 0}
label{display:block;font-weight:600;margin-bottom:.25rem}
.hint{margin:.1rem 0 .35rem;color:#4a5060;font-size:.92rem}
input,select{width:100%;padding:.6rem;border:1px solid #7a8296;border-radius:.3rem;font:inherit;background:#fff}
input[type=checkbox]{width:auto;margin:0 .5rem 0 0;transform:scale(1.3)}
.check{display:flex;align-items:flex-start;gap:.25rem;font-weight:600}
.check input{margin-top:.35rem}
input[type=file]{padding:.4rem}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.field-error{color:#b3261e;margin:.3rem 0 0;font-size:.95rem}
button,.button{font:inherit;font-weight:600;padding:.65rem 1.4rem;border:2px solid #1e4690;border-radius:.3rem;
  background:#1e4690;color:#fff;cursor:pointer;margin-top:.5rem;display:inline-block;text-decoration:none;text-align:center}
button[disabled]{background:#6b7a99;border-color:#6b7a99;cursor:progress}
button.secondary,.button.secondary{background:#fff;color:#1e4690;border:2px solid #1e4690}
button.link{background:none;border:0;color:#1e4690;text-decoration:underline;padding:.25rem 0;font-weight:400}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
.actions form{margin:0}
.actions button,.actions .button{margin-top:0}
@media (max-width:36rem){.actions{flex-direction:column;align-items:stretch}.actions button,.actions .button{width:100%}}
:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.errors:not(:empty){color:#b3261e;background:#fdecea;padding:.6rem .8rem;border-radius:.3rem;margin-top:1rem}
.notice{background:#fff4e5;padding:.6rem .8rem;border-radius:.3rem}
.notice.error{background:#fdecea;color:#8c1d18}
a{color:#1e4690}
.muted{color:#4a5060;font-size:.95rem}
.claims{padding-left:1.25rem}
.claims li{margin:.2rem 0}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:.5rem 0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
fieldset{border:1px solid #c5cde0;border-radius:.4rem;padding:.5rem 1rem;margin:1rem 0}
legend{font-weight:600;padding:0 .25rem}
details{margin-top:1rem}
summary{cursor:pointer;color:#4a5060}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
