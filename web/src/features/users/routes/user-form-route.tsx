import { Flex, Spinner } from '@chakra-ui/react';
import { Navigate, useParams } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { useProfile } from '../../../lib/auth/auth-context';
import { hasResource } from '../../../lib/auth/resources';
import { useUser } from '../api/get-user';
import { UserForm } from '../components/user-form';

/** /user/update/ (add) and /user/update/{userId} (edit); needs the USERS page role, else /not-found. */
export default function UserFormRoute() {
  const profile = useProfile();
  const { userId } = useParams();
  const id = userId ? Number(userId) : null;
  const user = useUser(id !== null && Number.isInteger(id) && id > 0 ? id : null);
  if (!hasResource(profile, 'USERS')) return <Navigate to="/not-found" replace />;
  if (id === null) return <UserForm user={null} />;
  if (!Number.isInteger(id) || id <= 0) return <Navigate to="/not-found" replace />;
  if (user.isLoading)
    return (
      <Flex p="10" justify="center">
        <Spinner />
      </Flex>
    );
  if (user.isError || !user.data)
    return <Notice status="error" title={user.error?.message ?? 'User not found.'} />;
  return <UserForm key={user.data.id} user={user.data} />;
}
