// The rules-engine API of the account service, in four parts on one booted service (rules-api-fixture):
// each part gets tenants of its own, so a part sees only what it created.
import './rules-api/rules';
import './rules-api/actions';
import './rules-api/env-vars-and-signing';
import './rules-api/tenancy';

import { closeRulesApiAfterAll } from './rules-api-fixture';

closeRulesApiAfterAll();
