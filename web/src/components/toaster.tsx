import { createToaster, Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';

/** Snackbar default 3 seconds (spec 1 §9). */
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, duration: 3000 });

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            <Toast.CloseTrigger />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
