// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: /dev/eventboost, one client per open file.  Open and release
 * make and free a client; the ioctls are checked and parsed here and
 * handed to the client's state machine (eb_client.c), so that user memory
 * and the caller's permissions are this file's alone.
 */
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "eb_internal.h"

/*
 * The ABI is fixed: a structure's size is part of its ioctl number, and
 * every __u64 sits 8-aligned so that 32-bit callers (compat_ptr_ioctl)
 * see the same layout as 64-bit ones.
 */
static_assert(sizeof(struct eb_version) == 32);
static_assert(sizeof(struct eb_boost_for) == 16);
static_assert(offsetof(struct eb_boost_for, reserved) == 8);
static_assert(sizeof(struct eb_bind) == 16);
static_assert(offsetof(struct eb_bind, reserved) == 8);
static_assert(sizeof(struct eb_client_info) == 40);
static_assert(offsetof(struct eb_client_info, timed_left_us) == 16);
static_assert(sizeof(struct eb_policy_stats) == 320);
static_assert(offsetof(struct eb_policy_stats, hints) == 40);

static ushort dev_mode = 0660;
module_param(dev_mode, ushort, 0444);
MODULE_PARM_DESC(dev_mode, "Mode of /dev/eventboost (default 0660; group from udev)");

/*
 * Set once the module's init can no longer fail; until then an open is
 * refused.  misc_open() calls eb_open() under misc_mtx, which
 * misc_deregister() takes: an init that fails removes the device with no
 * file open on it (and waits for the refused opens' module references).
 */
static bool eb_dev_is_ready;

static long eb_ioc_boost_for(struct eb_client *c, void __user *uarg)
{
	struct eb_boost_for b;

	if (copy_from_user(&b, uarg, sizeof(b)))
		return -EFAULT;
	if (b.flags || b.reserved || b.usec > EB_BOOST_FOR_MAX_US)
		return -EINVAL;
	if (!b.usec)
		return eb_client_vote(c, 0, EB_VOTE_TIMED, 0, EB_REASON_TIMED);
	return eb_client_vote(c, EB_VOTE_TIMED, 0, b.usec, EB_REASON_TIMED);
}

static long eb_ioc_bind(struct eb_client *c, void __user *uarg)
{
	struct task_struct *task, *old;
	unsigned long flags;
	struct eb_bind b;
	struct pid *pid;
	int from, to = -1;

	if (copy_from_user(&b, uarg, sizeof(b)))
		return -EFAULT;
	if (b.flags || b.reserved || b.tid < 0)
		return -EINVAL;
	if (!b.tid) {
		task = get_task_struct(current);
	} else {
		pid = find_get_pid(b.tid);
		task = get_pid_task(pid, PIDTYPE_PID);
		put_pid(pid);
		if (!task)
			return -ESRCH;
	}
	/* Only threads of the caller's own process. */
	if (!same_thread_group(task, current) || eb_task_gone(task)) {
		put_task_struct(task);
		return -ESRCH;
	}

	raw_spin_lock_irqsave(&c->lock, flags);
	old = c->task;
	c->task = task;
	if (c->votes)
		to = task_cpu(task);
	/* As a hint would: no votes on a CPU eventboost does not govern. */
	if (to >= 0 && !eb_cpu_client_budget_ns(to))
		to = -1;
	from = eb_client_set_votes(c, to >= 0 ? c->votes : 0, to,
				   ktime_get_ns());
	raw_spin_unlock_irqrestore(&c->lock, flags);

	put_task_struct(old);
	if (from >= 0 && from != to) {
		eb_cpu_update(from, -1, 0, true);
		if (to >= 0)
			eb_cpu_update(to, -1, 0, true);
	}
	return 0;
}

static long eb_ioc_client_info(struct eb_client *c, void __user *uarg)
{
	struct eb_client_info info = { 0 };
	u64 now = ktime_get_ns();
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	if (!eb_task_gone(c->task))
		info.bound_tid = task_pid_vnr(c->task);
	info.vote_cpu = c->vote_cpu;
	info.votes = c->votes;
	if ((c->votes & EB_VOTE_TIMED) && c->timed_end_ns > now)
		info.timed_left_us = div_u64(c->timed_end_ns - now,
					     NSEC_PER_USEC);
	raw_spin_unlock_irqrestore(&c->lock, flags);

	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long eb_ioc_version(void __user *uarg)
{
	struct eb_version v;

	if (copy_from_user(&v, uarg, sizeof(v)))
		return -EFAULT;
	if (memchr_inv(v.reserved, 0, sizeof(v.reserved)))
		return -EINVAL;
	v.abi_version = EB_ABI_VERSION;
	v.features = EB_FEAT_GC | EB_FEAT_QUEUE | EB_FEAT_TIMED |
		     EB_FEAT_BIND | EB_FEAT_POLICY_STATS | EB_FEAT_CLIENT_INFO |
		     EB_FEAT_FAIR_SHARE;
	return copy_to_user(uarg, &v, sizeof(v)) ? -EFAULT : 0;
}

static long eb_ioc_policy_stats(void __user *uarg)
{
	const size_t out = offsetof(struct eb_policy_stats, policy_cpu);
	struct eb_policy_stats st;
	int ret;

	if (copy_from_user(&st, uarg, sizeof(st)))
		return -EFAULT;
	if (st.in_flags || memchr_inv(st.reserved, 0, sizeof(st.reserved)))
		return -EINVAL;
	/* Nothing of the input is echoed back in an out field. */
	memset((char *)&st + out, 0, sizeof(st) - out);
	ret = eb_cpu_policy_stats(&st);
	if (ret)
		return ret;
	return copy_to_user(uarg, &st, sizeof(st)) ? -EFAULT : 0;
}

static long eb_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct eb_client *c = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case EB_IOC_VERSION:
		return eb_ioc_version(uarg);
	case EB_IOC_POLICY_STATS:
		return eb_ioc_policy_stats(uarg);
	case EB_IOC_GC_ENTER:
	case EB_IOC_GC_EXIT:
	case EB_IOC_QUEUE_BUSY:
	case EB_IOC_QUEUE_IDLE:
		if (arg)
			return -EINVAL;
		break;
	case EB_IOC_BOOST_FOR:
	case EB_IOC_BIND:
	case EB_IOC_CLIENT_INFO:
		break;
	default:
		return -ENOTTY;
	}

	/* Hints and BIND change state: not through a read-only file. */
	if (cmd != EB_IOC_CLIENT_INFO && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	/* A client acts only for the process it is bound in. */
	if (task_tgid(current) != c->share->tgid)
		return -EPERM;

	switch (cmd) {
	case EB_IOC_GC_ENTER:
		return eb_client_vote(c, EB_VOTE_GC, 0, 0, EB_REASON_GC);
	case EB_IOC_GC_EXIT:
		return eb_client_vote(c, 0, EB_VOTE_GC, 0, EB_REASON_GC);
	case EB_IOC_QUEUE_BUSY:
		return eb_client_vote(c, EB_VOTE_QUEUE, 0, 0, EB_REASON_QUEUE);
	case EB_IOC_QUEUE_IDLE:
		return eb_client_vote(c, 0, EB_VOTE_QUEUE, 0, EB_REASON_QUEUE);
	case EB_IOC_BOOST_FOR:
		return eb_ioc_boost_for(c, uarg);
	case EB_IOC_BIND:
		return eb_ioc_bind(c, uarg);
	default:
		return eb_ioc_client_info(c, uarg);
	}
}

static int eb_open(struct inode *inode, struct file *file)
{
	struct eb_client *c;

	/*
	 * The module is still loading (or failing to): try again.  Pairs
	 * with eb_dev_ready().
	 */
	if (!smp_load_acquire(&eb_dev_is_ready))
		return -EAGAIN;
	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return -ENOMEM;
	raw_spin_lock_init(&c->lock);
	eb_hrtimer_setup(&c->timer, eb_client_timer_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS_HARD);
	c->vote_cpu = -1;
	c->max_boost_us = EB_DEFAULT_MAX_BOOST_US;
	c->share_ns = U64_MAX;
	c->fair_left_ns = U64_MAX;

	mutex_lock(&eb_clients_lock);
	c->share = eb_share_get(task_tgid(current));
	if (!c->share) {
		mutex_unlock(&eb_clients_lock);
		kfree(c);
		return -ENOMEM;
	}
	c->task = get_task_struct(current);
	list_add(&c->node, &eb_clients);
	mutex_unlock(&eb_clients_lock);
	file->private_data = c;
	return 0;
}

static int eb_release(struct inode *inode, struct file *file)
{
	struct eb_client *c = file->private_data;
	unsigned long flags;
	int from;

	mutex_lock(&eb_clients_lock);
	list_del(&c->node);
	mutex_unlock(&eb_clients_lock);

	/* Votes ended by close are charged to the share like any other. */
	raw_spin_lock_irqsave(&c->lock, flags);
	from = eb_client_set_votes(c, 0, -1, ktime_get_ns());
	raw_spin_unlock_irqrestore(&c->lock, flags);
	hrtimer_cancel(&c->timer);
	if (from >= 0)
		eb_cpu_update(from, -1, 0, true);

	mutex_lock(&eb_clients_lock);
	eb_share_put(c->share);
	mutex_unlock(&eb_clients_lock);
	put_task_struct(c->task);
	kfree(c);
	return 0;
}

/*
 * At every close(), also of a copy: one by the client's process ends its
 * votes, as the last close would.  A child it forked without exec (a
 * prefork server) may keep a copy, and with it the file open: release
 * comes only with the child's.  A copy's close in another process ends
 * nothing; nor do a dup's in the client's own, which ends them all (the
 * client is the file, not the descriptor).
 */
static int eb_flush(struct file *file, fl_owner_t id)
{
	struct eb_client *c = file->private_data;
	unsigned long flags;
	int from = -1;

	raw_spin_lock_irqsave(&c->lock, flags);
	if (c->votes && same_thread_group(c->task, current))
		from = eb_client_set_votes(c, 0, -1, ktime_get_ns());
	raw_spin_unlock_irqrestore(&c->lock, flags);
	if (from >= 0)
		eb_cpu_update(from, -1, 0, true);
	return 0;
}

static const struct file_operations eb_fops = {
	.owner = THIS_MODULE,
	.open = eb_open,
	.flush = eb_flush,
	.release = eb_release,
	.unlocked_ioctl = eb_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice eb_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "eventboost",
	.fops = &eb_fops,
};

int eb_dev_init(void)
{
	eb_miscdev.mode = dev_mode & 0777;
	return misc_register(&eb_miscdev);
}

/* The governor is registered: a client can be served. */
void eb_dev_ready(void)
{
	/* Pairs with eb_open(): clients only once init is done. */
	smp_store_release(&eb_dev_is_ready, true);
}

void eb_dev_exit(void)
{
	misc_deregister(&eb_miscdev);
	eb_shares_exit();
}
