/**
 * The tenancy info island (src/islands/account/TenancySettingsPage.tsx): what a member sees, and what an admin
 * sends: an invitation (checked in the browser first), removing a user after the app's confirmation, and a
 * refusal from the server shown in words.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  InviteToTenancyDocument,
  RemoveTenancyUserDocument,
  SetTenancyAdminDocument,
  TenancySettingsDocument,
} from '../../src/client/gql/account.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, callsOf, Refusal, resetBackend } from './tenantBackend.ts';

vi.mock('../../src/islands/shared/useSession.ts', () => import('./tenantBackend.ts'));

const { default: TenancySettingsPage } = await import('../../src/islands/account/TenancySettingsPage.tsx');

const me = { userId: '3', name: 'Ane Hansen', email: 'ane@demo.test', isAdmin: true, isMe: true };
const bo = { userId: '4', name: '', email: 'bo@demo.test', isAdmin: false, isMe: false };

let isAdmin = true;
let members = [me, bo];

const settings = () => ({
  tenancySettings: {
    id: '11',
    tenancyId: 'T-1001',
    address: 'Lindevej 1, 1 tv',
    zipcode: '8000',
    city: 'Aarhus',
    apartment: '1 tv',
    start: '2024-01-01',
    end: null,
    propertyName: 'Lindely',
    contact: { phone: '+45 11 22 33 44', email: 'udlejer@demo.test' },
    isAdmin,
    members: members.map((m) => (m.isMe ? { ...m, isAdmin } : m)),
    pendingInvitations: [{ id: '21', email: 'cy@demo.test', lastSentAt: '2025-03-02T10:00:00Z' }],
  },
});

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  isAdmin = true;
  members = [me, bo];
  answers.set(TenancySettingsDocument, settings);
  answers.set(InviteToTenancyDocument, () => ({ inviteToTenancy: { id: '22' } }));
  answers.set(RemoveTenancyUserDocument, () => {
    members = members.filter((m) => m.userId !== '4');
    return { removeTenancyUser: true };
  });
});

describe('the tenancy info island', () => {
  it('shows a member the address, dates, contact, users and invitations, with no admin controls', async () => {
    isAdmin = false;
    render(<TenancySettingsPage lang="en" />);
    expect(await screen.findByText('Lindely')).toBeTruthy();
    expect(screen.getByText('1 January 2024')).toBeTruthy();
    expect(screen.getByText('Current tenancy')).toBeTruthy();
    expect(screen.getByText('Phone: +45 11 22 33 44')).toBeTruthy();
    const users = screen.getByTestId('members');
    expect(
      within(users)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/\s+/g, ' ').trim()),
    ).toEqual(['Ane Hansen ane@demo.test (you)', 'bo@demo.test']);
    expect(screen.getByTestId('invitations').textContent).toContain('cy@demo.test sent 2 March 2025');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Invite a user' })).toBeNull();
    expect(callsOf(TenancySettingsDocument)[0]!.variables).toEqual({ tenancyId: '11' });
  });

  it('checks an invitation address in the browser, then sends it and reads the tenancy again', async () => {
    render(<TenancySettingsPage lang="en" />);
    const email = await screen.findByLabelText('Email');
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(callsOf(InviteToTenancyDocument)).toHaveLength(0);

    fireEvent.change(email, { target: { value: '  dan@demo.test ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(callsOf(InviteToTenancyDocument)).toHaveLength(1));
    expect(callsOf(InviteToTenancyDocument)[0]!.variables).toEqual({
      tenancyId: '11',
      email: 'dan@demo.test',
    });
    await waitFor(() => expect(callsOf(TenancySettingsDocument)).toHaveLength(2));
    await waitFor(() => expect((email as HTMLInputElement).value).toBe(''));
  });

  it('removes a user only after the confirmation, and a cancel sends nothing', async () => {
    render(<TenancySettingsPage lang="en" />);
    const users = await screen.findByTestId('members');
    // No remove button for yourself.
    expect(within(users).getAllByRole('button', { name: 'Remove' })).toHaveLength(1);
    fireEvent.click(within(users).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Remove bo@demo.test from the tenancy?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(callsOf(RemoveTenancyUserDocument)).toHaveLength(0);

    fireEvent.click(within(users).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(callsOf(RemoveTenancyUserDocument)).toHaveLength(1));
    expect(callsOf(RemoveTenancyUserDocument)[0]!.variables).toEqual({ tenancyId: '11', userId: '4' });
    await waitFor(() => expect(screen.queryByText('bo@demo.test')).toBeNull());
  });

  it("shows the server's refusal in words when the last admin drops their own admin flag", async () => {
    answers.set(SetTenancyAdminDocument, () => {
      throw new Refusal('LAST_ADMIN', 'LAST_ADMIN');
    });
    members = [me];
    render(<TenancySettingsPage lang="en" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove admin' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove admin' }));
    await waitFor(() => expect(callsOf(SetTenancyAdminDocument)).toHaveLength(1));
    expect(callsOf(SetTenancyAdminDocument)[0]!.variables).toEqual({
      tenancyId: '11',
      userId: '3',
      isAdmin: false,
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('A tenancy needs at least one admin. Make another user admin first.');
    // Still an admin: the server refused.
    expect(screen.getByRole('button', { name: 'Remove admin' })).toBeTruthy();
  });
});
