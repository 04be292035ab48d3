import { AUTHENTICATION_TEXT, authenticationFooter, copyCodeLabel } from '../provider/template-components';
import { OutboundEntity } from './outbound.entity';

/** Outbound → wire JSON. AUTHENTICATION shows its predefined text, expiry footer and COPY_CODE button. */
export function presentOutbound(o: OutboundEntity) {
  const auth = o.category === 'AUTHENTICATION';
  const buttons = auth ? [{ type: 'COPY_CODE', text: copyCodeLabel(o.languageCode) }] : o.buttons;
  return {
    outbound_id: o.id,
    outbound_name: o.name,
    waba_phone_number: o.linePhone,
    category: o.category,
    language_code: o.languageCode,
    template_type: o.templateType,
    is_notification: o.isNotification,
    media_id: o.mediaId ?? undefined,
    content: auth ? AUTHENTICATION_TEXT[o.languageCode] : (o.content ?? undefined),
    header_text: o.headerText ?? undefined,
    footer: auth
      ? o.codeExpirationMinutes
        ? authenticationFooter(o.languageCode, o.codeExpirationMinutes)
        : undefined
      : (o.footer ?? undefined),
    code_expiration_minutes: o.codeExpirationMinutes ?? undefined,
    var: Object.fromEntries(Object.entries(o.examples).map(([k, value]) => [k, { value }])),
    buttons,
    variables: o.variables,
    default_flow_id: o.defaultFlowId ?? undefined,
    status: o.status,
    quality: o.quality,
    status_reason: o.statusReason ?? undefined,
    /** Messages with 4 or more buttons, or mixing a quick reply with another type, are not shown on desktop clients. */
    desktop_visible:
      buttons.length < 4 &&
      !(buttons.some((b) => b.type === 'QUICK_REPLY') && buttons.some((b) => b.type !== 'QUICK_REPLY')),
    creation_date: o.createdAt.toISOString(),
    update_date: o.updatedAt.toISOString(),
  };
}
