import { TemplateLibrary } from '../components/template-library';

/** /template-library-new: the data-grid variant. */
export default function TemplateLibraryNewRoute() {
  return <TemplateLibrary variant="grid" />;
}
