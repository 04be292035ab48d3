import { domainException } from '@kyc/platform';

export enum CatalogErrorCode {
  CatalogNotFound = 'catalog_not_found',
  ProductsNotFound = 'products_not_found',
  ProductsExist = 'products_already_exist',
  DuplicateRetailerIds = 'duplicate_retailer_ids',
  NoChanges = 'no_changes',
  UnknownWaba = 'unknown_waba',
  NotLinked = 'catalog_not_linked',
  WabaMismatch = 'waba_not_linked_to_catalog',
}

const STATUS: Record<CatalogErrorCode, number> = {
  [CatalogErrorCode.CatalogNotFound]: 404,
  [CatalogErrorCode.ProductsNotFound]: 404,
  [CatalogErrorCode.ProductsExist]: 409,
  [CatalogErrorCode.DuplicateRetailerIds]: 400,
  [CatalogErrorCode.NoChanges]: 400,
  [CatalogErrorCode.UnknownWaba]: 404,
  [CatalogErrorCode.NotLinked]: 409,
  [CatalogErrorCode.WabaMismatch]: 409,
};

export class CatalogException extends domainException<CatalogErrorCode>(STATUS) {}
