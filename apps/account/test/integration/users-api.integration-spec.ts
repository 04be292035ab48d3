// Users of an account in two parts on one booted account and checks service (users-api-fixture): each
// part gets tenants of its own, so a part sees only the users it created.
import './users-api/create';
import './users-api/manage';

import { closeUsersApiAfterAll } from './users-api-fixture';

closeUsersApiAfterAll();
