import { useSyncExternalStore } from 'react';
import { HttpError } from 'react-admin';
import { needsXsrf, withFieldErrors, xsrfToken } from './httpClient';

/** The percentage of the upload in flight, or undefined when none is. */
let uploadPercent: number | undefined;
const listeners = new Set<() => void>();

function setUploadPercent(value: number | undefined) {
  uploadPercent = value;
  for (const listener of listeners) listener();
}

export function useUploadPercent(): number | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => uploadPercent,
  );
}

interface FileValue {
  rawFile: File;
}

const isFileValue = (value: unknown): value is FileValue =>
  typeof value === 'object' && value !== null && (value as FileValue).rawFile instanceof File;

export function hasFile(data: Record<string, unknown>): boolean {
  return Object.values(data).some(isFileValue);
}

/**
 * The record as a multipart form: files under their field's name, lists as repeated fields,
 * images already stored (an object without a new file) and empty values left out.
 */
export function toFormData(data: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    if (isFileValue(value)) form.append(name, value.rawFile, value.rawFile.name);
    else if (Array.isArray(value)) for (const item of value) form.append(name, String(item));
    else if (value instanceof Date) form.append(name, value.toISOString());
    else if (typeof value !== 'object') form.append(name, String(value));
  }
  return form;
}

/**
 * Sends a multipart form with XMLHttpRequest, the one browser API that reports upload progress;
 * the percentage is published to `useUploadPercent`.
 */
export function sendForm(method: 'POST' | 'PUT', url: string, form: FormData): Promise<{ json: unknown }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    const token = xsrfToken();
    if (needsXsrf(method) && token) request.setRequestHeader('X-XSRF-TOKEN', token);
    setUploadPercent(0);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) setUploadPercent(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      setUploadPercent(undefined);
      let json: unknown;
      try {
        json = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        json = undefined;
      }
      if (request.status >= 200 && request.status < 300) resolve({ json });
      else {
        const message = (json as { message?: string } | undefined)?.message ?? request.statusText;
        reject(withFieldErrors(new HttpError(message, request.status, json)));
      }
    };
    request.onerror = () => {
      setUploadPercent(undefined);
      reject(new HttpError('Network error', 0));
    };
    request.send(form);
  });
}
