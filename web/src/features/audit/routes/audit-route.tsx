import { AuditLog } from '../components/audit-log';

/** /audit: the audit log for the roles that administer users. */
export default function AuditRoute() {
  return <AuditLog />;
}
