import { Flex, NativeSelect, Spinner } from '@chakra-ui/react';
import { useState } from 'react';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { API_DOCUMENTS, useApiDocument, type ApiDocumentName } from '../api/get-api-document';
import { SwaggerViewer } from '../components/swagger-viewer';

/**
 * /resource-api-documentation (spec 1 §2.2): the OpenAPI documents of the
 * services and the gateway, one at a time, generated from the route schemas.
 */
export default function ApiDocsRoute() {
  const [name, setName] = useState<ApiDocumentName>('case');
  const doc = useApiDocument(name);
  return (
    <Page data-testid="api-docs">
      <PageHeader
        title="API Documentation"
        description={
          <>
            Every call is made under <code>/api</code> with your access token as a bearer token.
          </>
        }
        actions={
          <NativeSelect.Root size="sm" maxW="sm">
            <NativeSelect.Field
              aria-label="API"
              data-testid="api-docs-select"
              value={name}
              onChange={(e) => setName(e.currentTarget.value as ApiDocumentName)}
            >
              {API_DOCUMENTS.map((d) => (
                <option key={d.name} value={d.name}>
                  {d.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        }
      />
      {doc.isPending && (
        <Flex p="10" justify="center">
          <Spinner size="lg" color="brand.solid" />
        </Flex>
      )}
      {doc.isError && <Notice status="error" title={doc.error.message} testId="api-docs-error" />}
      {doc.data && <SwaggerViewer key={name} spec={doc.data} />}
    </Page>
  );
}
