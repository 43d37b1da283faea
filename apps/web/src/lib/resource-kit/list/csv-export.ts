// Export CSV: the list's own query (without paging) at `<list path>/export.csv`, fetched through the API
// client with the session's token and saved under the name the server gives it.
import { csvExportPath } from '@careplane/shared/common/list-columns';
import { api } from '@/lib/api-client.ts';
import { saveFile } from '@/lib/save-file.ts';
import { toExportRequest, type ListRequest } from './list-url.ts';

export async function exportCsv(listPath: string, request: ListRequest, fallbackName: string, view?: string) {
  const file = await api.download(csvExportPath(listPath), {
    // Dates in the file, and its name, in the reader's zone, as the list shows them.
    query: {
      ...toExportRequest(request),
      ...(view ? { view } : {}),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    },
    accept: 'text/csv',
  });
  saveFile(file.blob, file.fileName ?? `${fallbackName}.csv`);
}
