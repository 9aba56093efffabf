from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        # The player name must be set before the first save: its key is unique, and an empty
        # one would collide with the next sign-up's.
        user = super().save_user(request, user, form, commit=False)
        user.player_name = form.cleaned_data["player_name"]
        if commit:
            user.save()
        return user
