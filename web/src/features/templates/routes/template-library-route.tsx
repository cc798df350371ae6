import { TemplateLibrary } from '../components/template-library';

/** /template-library: the classic list. */
export default function TemplateLibraryRoute() {
  return <TemplateLibrary variant="classic" />;
}
