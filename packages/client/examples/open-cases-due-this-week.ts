import { createPortalClient, type PortalClientOptions } from '../src/index';

/** yyyy-MM-dd of a date (UTC). */
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The README example (issue 35.3): a merchant's open cases due this week
 * (today to Sunday), then one PDF of evidence uploaded and submitted for the
 * first of them. The key needs the `cases:read` and `evidence:write` scopes.
 */
export async function openCasesDueThisWeek(
  options: PortalClientOptions,
  evidence?: { pdf: Blob; filename: string },
) {
  const portal = createPortalClient(options);
  const today = new Date();
  const sunday = new Date(today);
  sunday.setUTCDate(today.getUTCDate() + ((7 - today.getUTCDay()) % 7));

  const { data, error } = await portal.cases.GET('/cm/cases', {
    params: {
      query: {
        // The open cases: status groups New (1) and In Progress (2).
        status_group_id: '1,2',
        due_date_range: `${day(today)}|${day(sunday)}`,
        sort_by: 'date_due',
        sort_order: 'asc',
        limit: 100,
      },
    },
  });
  if (error) throw new Error(`listing cases failed: ${error.message}`);
  const cases = data.data;

  let uploaded: { caseId: number; message: string } | null = null;
  // Evidence goes to a case still waiting for it (New, Working or UploadPreparing).
  const first = cases.find((c) => [1, 2, 16].includes(c.status_id));
  if (evidence && first) {
    const link = await portal.docs.GET('/docs/representment/upload-link', {
      params: { query: { case_id: first.id, filename: evidence.filename, content_type: 'application/pdf' } },
    });
    if (link.error) throw new Error(`upload link refused: ${link.error.message}`);
    const key = await portal.uploadToForm(link.data, evidence.pdf, evidence.filename);
    const submitted = await portal.docs.POST('/docs/representment', {
      body: {
        case_id: first.id,
        origin: 2,
        files: [
          {
            s3_key: key,
            filename: evidence.filename,
            content_type: 'application/pdf',
            size: evidence.pdf.size,
            order_num: 0,
          },
        ],
        templates: [],
        qc_review: false,
        is_reupload: false,
      },
    });
    if (submitted.error) throw new Error(`submission refused: ${submitted.error.message}`);
    uploaded = { caseId: first.id, message: submitted.data.message };
  }
  return { cases, uploaded };
}
