import { r, SandboxListedName } from './sandbox-records';

export const SANDBOX_LISTED_NAMES: SandboxListedName[] = [
  {
    ref: 'int-sanctioned',
    country: 'ALL',
    name: 'Viktor Sokolov',
    records: [
      r(
        'international_background',
        'name',
        'very_high',
        'sanctions_list_entry',
        {
          list: 'Sandbox Consolidated Sanctions List',
          authority: 'Sandbox Treasury',
          description: 'Designated individual',
        },
        { date: '2019-03-19' },
      ),
      r(
        'alert_in_media',
        'name',
        'high',
        'media_article',
        { headline: 'Sanctioned businessman linked to shell companies', source: 'Sandbox Wire' },
        { date: '2022-08-08' },
      ),
    ],
  },
  {
    ref: 'int-pep',
    country: 'ALL',
    name: 'Helena Marković',
    records: [
      r(
        'international_background',
        'name',
        'low',
        'sanctions_list_entry',
        {
          list: 'Sandbox Politically Exposed Persons',
          authority: 'Sandbox Registry',
          description: 'Former deputy minister',
        },
        { date: '2018-01-01' },
      ),
    ],
  },
];
