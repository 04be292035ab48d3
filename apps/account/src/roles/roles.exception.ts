import { domainException } from '@kyc/platform';

export enum RoleErrorCode {
  RoleNotFound = 'role_not_found',
  RoleAlreadyExists = 'role_already_exists',
  ReservedRoleName = 'reserved_role_name',
  BuiltInRole = 'built_in_role',
  RoleInUse = 'role_in_use',
}

const STATUS: Record<RoleErrorCode, number> = {
  [RoleErrorCode.RoleNotFound]: 404,
  [RoleErrorCode.RoleAlreadyExists]: 409,
  [RoleErrorCode.ReservedRoleName]: 400,
  [RoleErrorCode.BuiltInRole]: 403,
  [RoleErrorCode.RoleInUse]: 409,
};

export class RoleException extends domainException<RoleErrorCode>(STATUS) {}
