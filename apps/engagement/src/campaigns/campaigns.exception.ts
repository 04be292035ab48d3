import { domainException } from '@kyc/platform';

export enum CampaignErrorCode {
  CampaignNotFound = 'campaign_not_found',
  CampaignFinished = 'campaign_finished',
}

const STATUS: Record<CampaignErrorCode, number> = {
  [CampaignErrorCode.CampaignNotFound]: 404,
  [CampaignErrorCode.CampaignFinished]: 409,
};

export class CampaignException extends domainException<CampaignErrorCode>(STATUS) {}
