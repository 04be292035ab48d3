import { PASS_MESSAGES } from '../pages/i18n/messages';
import { parseAuthorizationDetails } from '../provider/authorization-details';
import { approvalPage, humanize } from './approval-page';

const view = (details: unknown[], errors = {}) => ({
  authReqId: 'req-1',
  sig: 'sig',
  requester: { name: 'Acme web', tenant: 'acme' },
  bindingMessage: 'Loan 4821',
  scopes: ['openid', 'document:co:passport'],
  details: parseAuthorizationDetails(JSON.stringify(details)),
  attachments: new Map(),
  errors,
});

describe('approvalPage', () => {
  it('writes member names as words', () => {
    expect(humanize('loan_agreement')).toBe('Loan agreement');
    expect(humanize('amountLimit')).toBe('Amount limit');
  });

  it('shows the details in words: the label or the type as words, members as pairs, never JSON', () => {
    const c = { lang: 'es' as const, m: PASS_MESSAGES.es };
    const page = approvalPage(
      c,
      view([
        { type: 'loan_agreement', amount_limit: 2000, terms: { months: 12, fixed: true }, tags: ['a', 'b'] },
        { type: 'x', label: 'Crédito de vivienda' },
      ]),
    );
    expect(page).toContain('<h3 id="detail_0_label">Loan agreement</h3>');
    expect(page).toContain('<dd data-member="terms">Months: 12; Fixed: Sí</dd>');
    expect(page).toContain('<dd data-member="tags">a, b</dd>');
    expect(page).toContain('<h3 id="detail_1_label">Crédito de vivienda</h3>');
    expect(page).toContain('tus documentos (CO, passport)');
    expect(page).not.toMatch(/[{}]/);
    expect(page).not.toContain('loan_agreement<');
  });

  it("says each refused answer in the approver's language", () => {
    const fields = [{ name: 'note', label: 'Nota', type: 'text', max_length: 5 }];
    const c = { lang: 'pt' as const, m: PASS_MESSAGES.pt };
    const page = approvalPage(c, view([{ type: 'x', form_fields: fields }], { note: 'too_long' }));
    expect(page).toContain('Nota: digite no máximo 5 caracteres.');
    expect(page).toContain('aria-invalid="true" aria-describedby="error_note"');
  });
});
