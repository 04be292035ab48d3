// The outbounds suites, on one booted stack (sandbox provider, account, engagement); each suite
// (a describe block of ./outbounds-api/) has its own two tenants.
import './outbounds-api/lifecycle';
import './outbounds-api/rules';
import './outbounds-api/sends';
import './outbounds-api/inbounds-webhooks';

import { useOutboundsStack } from './support/outbounds-fixture';

useOutboundsStack('account-engagement-outbounds-spec');
