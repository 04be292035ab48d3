import { AgentView } from './agents.service';
import { AgentResponse } from './dto/agent.response';

export const presentAgent = ({ agent, settings, role, permissions }: AgentView): AgentResponse => {
  const capacity = agent.capacity ?? settings.defaultCapacity;
  return {
    username: agent.email,
    user_id: agent.userId,
    ...(role ? { role } : {}),
    ...(permissions ? { permissions } : {}),
    status: agent.status,
    capacity,
    own_capacity: agent.capacity !== null,
    active_chats: agent.activeChats,
    free_capacity: Math.max(0, capacity - agent.activeChats),
    groups: agent.groups,
    last_assigned_at: agent.lastAssignedAt ? agent.lastAssignedAt.toISOString() : null,
    update_date: agent.updatedAt.toISOString(),
  };
};
