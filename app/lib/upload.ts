import { errorBodySchema } from '#contract/common.ts';
import { ApiError } from './api-client.ts';

/**
 * Uploads a photo to /api/photos.php and reports progress (0–100) as it goes: fetch cannot report
 * upload progress, XMLHttpRequest can. Rejects with the API's error.
 */
export function uploadPhoto(file: File, onProgress: (percent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/photos.php');
    request.withCredentials = true;
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(100);
        resolve();
        return;
      }
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(request.responseText);
      } catch {
        // expected: an answer without a JSON body gets the generic message below.
        parsed = null;
      }
      const body = errorBodySchema.safeParse(parsed);
      reject(
        new ApiError(request.status, body.success ? body.data : { error: 'internal_error', message: '' }),
      );
    });
    request.addEventListener('error', () => reject(new ApiError(0, { error: 'network_error', message: '' })));
    const body = new FormData();
    body.append('file', file);
    request.send(body);
  });
}
