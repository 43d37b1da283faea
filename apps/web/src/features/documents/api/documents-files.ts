// Files in and out of the documents API: uploads with progress (XMLHttpRequest reports upload progress,
// fetch does not), and downloads saved under the name the server gives ("document <timestamp>.pdf").
import {
  documentEndpoints,
  type Document,
  type VerificationReport,
} from '@careplane/shared/documents/documents.contract';
import type { ErrorBody } from '@careplane/shared/common/http';
import i18next from 'i18next';
import { ApiError, apiUrl, NetworkError } from '@/lib/api-client.ts';
import { currentLanguage } from '@/lib/i18n/language.ts';
import { sessionStore } from '@/lib/session.ts';

export interface UploadProgress {
  loaded: number;
  total: number;
}

const messageOf = (status: number, body: unknown, fallback: string) =>
  typeof body === 'object' && body !== null && typeof (body as ErrorBody).message === 'string'
    ? (body as ErrorBody).message
    : status === 0
      ? i18next.t('documents:files.unreachable')
      : fallback;

/** Posts a file as multipart/form-data (field `file`, optional fields beside it) and reports progress. */
function postFile<T>(
  path: string,
  file: File,
  options: {
    fields?: Record<string, string>;
    authenticated: boolean;
    onProgress?: (progress: UploadProgress) => void;
    signal?: AbortSignal;
  },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
    form.append('file', file, file.name);
    const request = new XMLHttpRequest();
    request.open('POST', apiUrl(path));
    request.setRequestHeader('accept', 'application/json');
    // The server answers its messages in the console's language, as for every other request.
    request.setRequestHeader('accept-language', currentLanguage());
    if (options.authenticated)
      request.setRequestHeader('authorization', `Bearer ${sessionStore.getAccessToken()}`);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    request.onload = () => {
      const body: unknown = request.response;
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else
        reject(
          new ApiError(
            request.status,
            messageOf(
              request.status,
              body,
              i18next.t('documents:files.uploadFailed', { status: request.status }),
            ),
            body,
          ),
        );
    };
    request.onerror = () => reject(new ApiError(0, i18next.t('documents:files.unreachable')));
    request.onabort = () => reject(new DOMException(i18next.t('documents:files.cancelled'), 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(form);
  });
}

export const uploadDocument = (
  file: File,
  title: string | undefined,
  onProgress?: (progress: UploadProgress) => void,
) =>
  postFile<Document>(documentEndpoints.list, file, {
    authenticated: true,
    ...(title ? { fields: { title } } : {}),
    ...(onProgress ? { onProgress } : {}),
  });

/** Public: no token is sent. */
export const verifyDocument = (file: File, onProgress?: (progress: UploadProgress) => void) =>
  postFile<VerificationReport>(documentEndpoints.verify, file, {
    authenticated: false,
    ...(onProgress ? { onProgress } : {}),
  });

const fileNameOf = (disposition: string | null, fallback: string) =>
  /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;

/** Fetches a document's file with the session's token and saves it under the server's name. */
export async function downloadDocument(id: string, which: 'original' | 'signed'): Promise<string> {
  const path = which === 'signed' ? documentEndpoints.downloadSigned(id) : documentEndpoints.download(id);
  const response = await fetch(apiUrl(path), {
    headers: {
      authorization: `Bearer ${sessionStore.getAccessToken()}`,
      'accept-language': currentLanguage(),
    },
  }).catch((error: unknown) => {
    throw error instanceof TypeError ? new NetworkError(error) : error;
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(
      response.status,
      messageOf(response.status, body, i18next.t('documents:files.downloadFailed')),
      body,
    );
  }
  const name = fileNameOf(response.headers.get('content-disposition'), 'document.pdf');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
