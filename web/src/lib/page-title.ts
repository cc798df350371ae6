import { useEffect } from 'react';
import { useTenant } from './tenant-config';

/** '{page} - {site}' (spec 2.2). */
export function pageTitle(page: string, site: string): string {
  return page ? `${page} - ${site}` : site;
}

/** The body id derived from the path: '/case-qc-review/view-case/7' -> 'case-qc-review-view-case-7', '/' -> 'root'. */
export function bodyIdFromPath(path: string): string {
  const id = path
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || 'root';
}

/** The current page title: other modules (idle warning) read it to restore after blinking. */
let currentTitle = '';
export function getCurrentTitle(): string {
  return currentTitle || document.title;
}

export function usePageTitle(page: string): void {
  const tenant = useTenant();
  useEffect(() => {
    currentTitle = pageTitle(page, tenant.site_name);
    document.title = currentTitle;
  }, [page, tenant.site_name]);
}
