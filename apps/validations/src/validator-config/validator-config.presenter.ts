import { ConfigurableValidator, DOCUMENT_SWITCHES } from '@kyc/contracts';

import { defaultDocumentSwitches, EffectiveSettings } from './validator-settings';

/** One validator's settings in force, wire-named; document_config as a list per country and document type. */
export function presentConfig(validator: ConfigurableValidator, s: EffectiveSettings) {
  const { document_config, ...rest } = s;
  if (validator !== 'document-validation') return { validator, ...rest };
  const documentConfig = Object.entries(document_config ?? {}).map(([country, entry]) => ({
    country,
    document_version: entry.document_version ?? 'all',
    document_types: Object.entries(entry.types ?? {}).map(([documentType, switches]) => ({
      document_type: documentType,
      ...Object.fromEntries(DOCUMENT_SWITCHES.map((k) => [k, switches[k] ?? defaultDocumentSwitches()[k]])),
    })),
  }));
  return { validator, ...rest, document_config: documentConfig, document_config_defaults: defaultDocumentSwitches() };
}
