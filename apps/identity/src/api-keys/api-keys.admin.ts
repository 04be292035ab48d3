import { AdminCommand } from '@kyc/platform';

import { presentApiKey } from './api-key.presenter';
import { ApiKeysService } from './api-keys.service';
import { AdminIssueApiKeyDto } from './dto/issue-api-key.dto';

/**
 * `node dist/apps/identity/src/main.js admin issue-key --tenant acme --user <user_id> [--name bootstrap]
 * [--version 1]`: what POST /v1/admin/api-keys does (the same DTO and ApiKeysService.issue): a backend
 * key of the user, signed with API_KEY_PRIVATE_KEY. The key is printed once and never stored.
 */
export const issueKeyCommand: AdminCommand<AdminIssueApiKeyDto> = {
  usage: '--tenant <tenant_id> --user <user_id> [--name <key name>] [--version 0|1]',
  dto: AdminIssueApiKeyDto,
  aliases: { tenant: 'tenant_id', user: 'user_id', name: 'key_name', version: 'api_key_version' },
  defaults: { key_name: 'bootstrap' },
  fixed: { key_type: 'backend' },
  requires: [{ variable: 'API_KEY_PRIVATE_KEY', what: 'the API-key signing private key' }],
  async run(app, dto) {
    const { key, token } = await app.get(ApiKeysService).issue({
      tenantId: dto.tenant_id,
      userId: dto.user_id,
      name: dto.key_name,
      keyType: dto.key_type,
      version: dto.api_key_version ?? 0,
    });
    return { api_key: token, tenant_id: key.tenantId, ...presentApiKey(key) };
  },
};
