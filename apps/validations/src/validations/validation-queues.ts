/** Job queues of the validations: the engines' run once the media are in, and the purge after a delete. */
export const PROCESS_QUEUE = 'validations.process';
export const PURGE_QUEUE = 'validations.purge';
