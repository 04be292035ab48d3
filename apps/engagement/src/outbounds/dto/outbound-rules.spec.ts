import { activationLink } from '../../inbounds/inbounds.service';
import { varValuesOf } from '../../messages/dto/var-values.decorator';
import { advances } from '../../messages/messages.service';
import { sign, validSignature } from '../../provider/whatsapp-webhook';
import { outboundRuleErrors, quickRepliesGrouped, urlProblem } from './outbound-rules';
import { SaveOutboundDto } from './save-outbound.dto';

const QR = 'QUICK_REPLY';

describe('outbound rules', () => {
  it('accepts the valid quick-reply groupings and refuses the invalid ones', () => {
    expect(quickRepliesGrouped([QR, QR])).toBe(true);
    expect(quickRepliesGrouped([QR, QR, 'URL', 'PHONE_NUMBER'])).toBe(true);
    expect(quickRepliesGrouped(['URL', 'PHONE_NUMBER', QR, QR])).toBe(true);
    expect(quickRepliesGrouped([QR, 'URL', QR])).toBe(false);
    expect(quickRepliesGrouped(['URL', QR, 'URL'])).toBe(false);
  });

  it('checks URL buttons: scheme, host, one variable at the end', () => {
    expect(urlProblem('https://a.example.com/o/{{.id}}')).toBeUndefined();
    expect(urlProblem('ftp://a.example.com')).toMatch(/scheme/);
    expect(urlProblem('https://a.example.com/{{.a}}/{{.b}}')).toMatch(/one variable/);
    expect(urlProblem('https://a.example.com/{{.a}}/x')).toMatch(/at the end/);
    expect(urlProblem('a.example.com')).toMatch(/absolute/);
  });

  it('lists every offending field of an AUTHENTICATION outbound at once', () => {
    const dto = Object.assign(new SaveOutboundDto(), {
      outbound_name: 'otp',
      waba_phone_number: '+573000000001',
      category: 'AUTHENTICATION',
      language_code: 'es',
      template_type: 'IMAGE',
      is_notification: true,
      content: 'x',
      footer: 'y',
      buttons: [{ type: QR, text: 'a' }],
    });
    const fields = new Set(outboundRuleErrors(dto).errors.map((e) => e.field));
    expect([...fields].sort()).toEqual(['buttons', 'content', 'footer', 'media_id', 'template_type']);
  });
});

describe('sends, links and webhooks', () => {
  it('never moves a delivery status back', () => {
    expect(advances('accepted', 'sent')).toBe(true);
    expect(advances('read', 'delivered')).toBe(false);
    expect(advances('delivered', 'failed')).toBe(true);
    expect(advances('read', 'failed')).toBe(false);
    expect(advances('failed', 'read')).toBe(false);
  });

  it('reads var.<name> fields and a var object; refuses non-string values', () => {
    expect(varValuesOf({ 'var.name': 'Ana', other: 1, var: { code: '123' } })).toEqual({ name: 'Ana', code: '123' });
    expect(() => varValuesOf({ 'var.name': { nested: true } })).toThrow();
  });

  it('builds activation links with the URL-encoded text (%20 for spaces)', () => {
    expect(activationLink('https://wa.me/', '+57 300 000 0001', 'Hola banco')).toBe(
      'https://wa.me/573000000001?text=Hola%20banco',
    );
  });

  it('checks X-Hub-Signature-256 over the raw bytes', () => {
    const raw = Buffer.from('{"a":1}');
    expect(validSignature(raw, sign(raw, 'secret'), 'secret')).toBe(true);
    expect(validSignature(raw, sign(raw, 'other'), 'secret')).toBe(false);
    expect(validSignature(Buffer.from('{"a":2}'), sign(raw, 'secret'), 'secret')).toBe(false);
    expect(validSignature(raw, 'sha256=zz', 'secret')).toBe(false);
    expect(validSignature(raw, undefined, 'secret')).toBe(false);
  });
});
