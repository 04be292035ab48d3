/** The badge color of a check's, a process's or a dataset's status. */
export function statusColor(status: string | undefined): string {
  switch (status?.toLowerCase()) {
    case 'completed':
    case 'success':
    case 'not_found':
      return 'green';
    case 'not_started':
    case 'delayed':
    case 'in_progress':
    case 'pending':
    case 'generating':
      return 'yellow';
    case 'error':
    case 'failure':
    case 'found':
      return 'red';
    default:
      return 'gray';
  }
}
